"""Seat records: who holds each seat of a game, as stored and as shown.

A seat record is ``{kind: "open"|"human"|"bot"|"engine"|"quit", name?, bot?, token?, joined?, devices?,
missed?, disorder?}`` ("engine":
a seat the game mode's own procedures play, ``Game.ENGINE_SEATS``, e.g. the SPI solitaire's non-Red Player); a human
seat's token is kept only as its SHA-256 (:func:`token_hash`).  :func:`public_seats` is what
clients see of the records (never a token hash) and :func:`seats_status` the game's lobby
status while it is not over."""

from __future__ import annotations

import hashlib
import hmac

#: The record of a seat nobody holds.
OPEN: dict = {"kind": "open"}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def holds(rec: dict, token: str) -> bool:
    """Whether ``token`` holds the human seat of record ``rec``: its token, or one of the device
    tokens its e-mail login links gave (``devices``, hashes too; rcw.server.notify)."""
    if rec.get("kind") != "human" or not token:
        return False
    h = token_hash(token)
    return any(hmac.compare_digest(x, h) for x in [rec.get("token", ""), *rec.get("devices", ())])


def public_seats(seats: dict[str, dict]) -> dict[str, dict]:
    out = {}
    for s, rec in sorted(seats.items()):
        d = {"kind": rec["kind"]}
        if rec.get("name"):
            d["name"] = rec["name"]
        if rec.get("bot"):
            d["bot"] = rec["bot"]
        if rec.get("disorder"):
            d["disorder"] = True            # civil disorder: its bot plays it (rcw.server.absence)
        if rec.get("missed"):
            d["missed"] = rec["missed"]     # deadlines missed in a row
        out[s] = d
    return out


def seats_status(seats: dict[str, dict]) -> str:
    """``open`` while a seat is open (the game waits), else ``playing``."""
    return "open" if any(r["kind"] == "open" for r in seats.values()) else "playing"
